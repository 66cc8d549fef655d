/**
 * The two places coverage reads: the store (as every reader finds it) and Claude Code's projects
 * folder, where it keeps one transcript per session. The launcher and the coverage run resolve
 * them the same way, so the flags name exactly what the run opens.
 *
 * @module
 */

import { type EnvLookup, resolveDbPath } from "../lib/paths.ts";

/** The environment variables coverage reads, and nothing else. */
export const COVERAGE_ENV_VARS = [
  "HOME",
  "XDG_DATA_HOME",
  "CYBEROS_MEMORY_DB",
  "CLAUDE_CONFIG_DIR",
] as const;

const STORE_ENV_VARS: readonly string[] = ["HOME", "XDG_DATA_HOME", "CYBEROS_MEMORY_DB"];

/** What coverage reads. */
export interface CoveragePaths {
  /** The store (its `-wal` and `-shm` files beside it). */
  db: string;
  /** Claude Code's projects folder: `$CLAUDE_CONFIG_DIR/projects`, by default `~/.claude/projects`. */
  projectsDir: string;
}

/**
 * Resolves the store and the projects folder from the environment.
 *
 * @throws {TypeError} when a variable is not an absolute path, or none names a place
 */
export function resolveCoveragePaths(env: EnvLookup): CoveragePaths {
  // Only the store's variables are asked: the socket and trace dir are not coverage's business.
  const storeOnly: EnvLookup = (name) => STORE_ENV_VARS.includes(name) ? env(name) : undefined;
  const db = resolveDbPath(storeOnly);
  const configDir = env("CLAUDE_CONFIG_DIR") || (env("HOME") ? `${env("HOME")}/.claude` : "");
  if (!configDir.startsWith("/")) {
    throw new TypeError(
      configDir === ""
        ? "Cannot find Claude Code's projects folder: set CLAUDE_CONFIG_DIR or HOME to an absolute path"
        : `Cannot use CLAUDE_CONFIG_DIR: "${configDir}" is not an absolute path, give one starting with /`,
    );
  }
  return { db, projectsDir: `${configDir.replace(/\/+$/, "")}/projects` };
}
