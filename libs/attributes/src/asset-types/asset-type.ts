/** One of the seeded asset types (File, Image, Video, Audio). */
export interface AssetType {
  id: number;
  name: string;
}
