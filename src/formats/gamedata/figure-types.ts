import {
  type AnimationSetXml,
  type AvatarGeometryXml,
  type DrawOrderXml,
  type PartSetsXml,
} from './avatar-xml-types.js';
// The in-memory shapes of the figure gamedata: exactly the Nitro JSON documents (FigureData.json,
// FigureMap.json, HabboAvatarActions.json). The Flash XML parsers produce these same shapes.

export interface FigureDataColor {
  id: number;
  index?: number;
  club?: number;
  selectable?: boolean;
  hexCode: string;
}
export interface FigureDataPalette {
  id: number;
  colors: FigureDataColor[];
}
export interface FigureDataPart {
  id: number;
  type: string;
  colorable?: boolean;
  index?: number;
  colorindex?: number;
}
export interface FigureDataSet {
  id: number;
  gender?: string;
  club?: number;
  colorable?: boolean;
  selectable?: boolean;
  preselectable?: boolean;
  sellable?: boolean;
  parts: FigureDataPart[];
  hiddenLayers?: { partType: string }[];
}
export interface FigureDataSetType {
  type: string;
  paletteId: number;
  mandatory_f_0?: boolean;
  mandatory_f_1?: boolean;
  mandatory_m_0?: boolean;
  mandatory_m_1?: boolean;
  sets: FigureDataSet[];
}
export interface FigureDataDoc {
  palettes: FigureDataPalette[];
  setTypes: FigureDataSetType[];
}

export interface FigureMapLibrary {
  id: string;
  revision?: number;
  parts: { id: number | string | null; type: string }[];
}
export interface FigureMapDoc {
  libraries: FigureMapLibrary[];
}

export interface ActionParam {
  id: string;
  value: string;
}
export interface ActionDefinitionJson {
  id: string;
  state: string;
  precedence: number;
  main?: boolean | number;
  isDefault?: boolean;
  geometryType: string;
  activePartSet?: string;
  assetPartDefinition: string;
  prevents?: string[];
  preventHeadTurn?: boolean;
  animation?: boolean | number;
  lay?: string;
  params?: ActionParam[];
  startFromFrameZero?: boolean;
}
export interface ActionOffsetJson {
  action: string;
  offsets: { size: string; direction: number; x: number; y: number; z?: number }[];
}
export interface AvatarActionsDoc {
  actions: ActionDefinitionJson[];
  actionOffsets?: ActionOffsetJson[];
}

/**
 * The avatar documents of a hotel, as both layouts give them: the figure data, figure map and actions,
 * and, when the hotel has its own (Flash, or a folder converted from Flash), geometry, part sets,
 * animations and draw order.
 */
export interface AvatarDocuments {
  figureData: FigureDataDoc;
  figureMap: FigureMapDoc;
  actions: AvatarActionsDoc;
  geometry?: AvatarGeometryXml;
  partSets?: PartSetsXml;
  animations?: AnimationSetXml;
  drawOrder?: DrawOrderXml;
}
