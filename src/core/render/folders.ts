// A thread's asset folders by signature (furni bundles, pet libraries): the last two asked for, the one in
// service and one being reloaded; an older one leaves with what it decoded. Every job kind of the thread that
// draws from a folder asks the same cache, so a bundle or library decoded for one is there for the others.
import { LRUCache } from 'lru-cache';

/** The folder at `hotelRoot` as it was when its signature was taken. */
export type Folders<T> = (hotelRoot: string, signature: string) => T;

export function lastFolders<T extends {}>(open: (hotelRoot: string, signature: string) => T): Folders<T> {
  const folders = new LRUCache<string, T>({ max: 2 });
  return (hotelRoot, signature) => {
    const key = `${hotelRoot}\0${signature}`;
    let folder = folders.get(key);
    if (!folder) folders.set(key, (folder = open(hotelRoot, signature)));
    return folder;
  };
}
