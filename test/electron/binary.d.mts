/** The project's root folder. */
export declare const ROOT: string;
/** Electron's binary, or why it is not here. */
export declare function electronBinary(): { path: string } | { missing: string };
