// Types of command.mjs (plain JavaScript, run by node without a build) for the TypeScript that tests it.

/** A git command over SSH the gate lets through. */
export type GitSshCommand = 'git-upload-pack' | 'git-upload-archive' | 'git-receive-pack';
/** The git commands let through, with git's subcommand for each. */
export declare const COMMANDS: Record<GitSshCommand, string>;
/** The argument as git quotes it, or a bare word; null otherwise. */
export declare function unquote(text: string): string | null;
/** A repository path safe to hand on (two parts under the repository root). */
export declare function safeRepositoryPath(p: string): boolean;
/** What the client asked for; null for another command, 'bad-path' for a git command on an unsafe path. */
export declare function parseCommand(
  original: string,
): { command: GitSshCommand; repository: string } | null | 'bad-path';
