/** What electron-builder hands its afterPack hook, as far as the hook reads it. */
export interface PackContext {
  appOutDir: string;
  electronPlatformName: string;
  arch: number;
  packager: { appInfo: { productFilename: string } };
}
export declare function resourcesOf(context: PackContext): string;
declare function afterPack(context: PackContext): Promise<void>;
export default afterPack;
