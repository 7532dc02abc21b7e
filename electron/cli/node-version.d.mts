/** The oldest Node.js Dubdesk runs on, e.g. `22.22.0`. */
export declare const MIN_NODE: string;
/** What to tell the user when `version` is too old; null when it will do. */
export declare function nodeProblem(version: string): string | null;
