/** One file of the sample asset kit, at its path relative to the kit's root (Nitro layout). */
export interface KitFile {
  path: string;
  data: Buffer;
}
