// permc in process from TypeScript: SPEC §10.1 requests, §10.2 decisions.

export type ActionType =
  | "terminal" | "git_commit" | "git_push" | "git_merge" | "container_remove"
  | "spend" | "instruction_patch" | (string & {});

export interface Request {
  action: {
    type: ActionType;
    command?: string | null;
    cwd?: string | null;
    agent?: string | null;
    targetBranch?: string | null;
    /** write_file: the file written (SPEC §10.1); needs `projectScopeRoot`. */
    path?: string | null;
  };
  context: {
    role: "viewer" | "developer" | "maintainer" | "owner" | (string & {});
    executionMode?: "container" | "mounted" | "runner" | null;
    containerRunning?: boolean | null;
    projectScopeRoot?: string | null;
  };
  /** Echoed in the decision. */
  id?: unknown;
}

export interface Decision {
  policy: "auto_approve" | "require_approval" | "deny";
  /** A reason of SPEC §5.3: `file.allow`, `ceiling.scope`, `ceiling.protected_path`… */
  reason: string;
  rule?: string;
  source?: string;
  autonomyOrigin?: string;
  scopeRoot?: string;
  message: string;
  id?: unknown;
}

/** A diagnostic, as `permc check --format json` gives it (`null` positions: the whole file, e.g. `unreadable-file`). */
export interface Diagnostic {
  check: string;
  severity: "error" | "warning" | "info";
  file: string;
  line: number | null;
  column: number | null;
  endLine: number | null;
  endColumn: number | null;
  message: string;
  help: string | null;
  related: { file: string; line: number; column: number; message: string }[];
}

/** What every function throws: `code` is SPEC §10.1's for a request, `rejected`, `unreadable` or `invalid_artifact` for a load; `version` is the diagnostics' JSON version (1). */
export interface PermcError extends Error {
  code: string;
  version: number;
  diagnostics: Diagnostic[];
}

export interface Tokens {
  unparsed: boolean;
  why: { condition: string; offset: number; message: string }[];
  segments: { words: string[]; redirects: { op: string; target: string }[]; nested: boolean }[];
}

export type AlwaysOutcome =
  | { outcome: "patterns"; patterns: string[]; added: string[]; explanations: string[] }
  | { outcome: "autonomy"; agent: string; type: string; mode: string; message: string }
  | { outcome: "refused"; reason: "teto_do_sempre_permitir"; message: string };

export declare class Policy {
  private constructor();
  /** Throws a PermcError when the request cannot be read (never a decision). */
  decide(request: Request): Decision;
  /** The text of `permc explain`. */
  explain(request: Request): string;
  /** What always-allowing the action would record; nothing is written. */
  always(request: Request): AlwaysOutcome;
}

export declare function load(files: { permissions: string; autonomy?: string | null }): Policy;
export declare function loadArtifact(path: string): Policy;
export declare function tokens(command: string): Tokens;
