// The SWF writer the reader's tests build their files with; it lives in src/formats/swf/writer.ts
// because the sample kit writes its Flash layout with it too.
export * from '../../src/formats/swf/writer.js';
