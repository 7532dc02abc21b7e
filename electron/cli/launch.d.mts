export declare const BUNDLE: string;
export declare function chooseEntry(root: string): 'bundle' | 'source';
export declare function launch(): Promise<unknown>;
