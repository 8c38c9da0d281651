export declare const DESKTOP_TOOLS_NODE: string;
export declare function atLeast(version: string, minimum: string): boolean;
export declare function desktopToolsNodeNote(version?: string): string;
