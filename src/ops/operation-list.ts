import { compileContextOp } from './operations/compile-context.js';
import { configSetOp } from './operations/config-set.js';
import { contextPackOp } from './operations/context-pack.js';
import { coreAckOp } from './operations/core-ack.js';
import { coreInitOp } from './operations/core-init.js';
import { coreStatusOp } from './operations/core-status.js';
import { coreSuggestApplyOp } from './operations/core-suggest-apply.js';
import { importOp } from './operations/import.js';
import type { AnyOperation } from './operations/operation.js';
import { deletePageOp, getPageOp, listPagesOp, putPageOp } from './operations/page-operations.js';
import { purgeOp } from './operations/purge.js';
import { rebuildOp } from './operations/rebuild.js';
import { replayOp } from './operations/replay.js';
import { volunteerContextOp } from './operations/volunteer-context.js';
import { forgetOp, listFactsOp, rememberOp } from './remember-operations.js';

/**
 * Every operation of this build, listed once: `call`, the MCP server and serve all look names up
 * here, so what one surface can run, the others can (each within the operation's access rule).
 * The CLI commands of the owner's maintenance run their operation from here too, so each
 * command's caller rule is the operation's declared access. Nothing is added at run time.
 */
export const OPERATIONS: readonly AnyOperation[] = Object.freeze([
  volunteerContextOp,
  getPageOp,
  putPageOp,
  deletePageOp,
  listPagesOp,
  contextPackOp,
  coreStatusOp,
  coreAckOp,
  rememberOp,
  forgetOp,
  listFactsOp,
  // The owner's maintenance of a brain: never MCP tools (src/mcp/mcp-server.ts lists those).
  coreInitOp,
  coreSuggestApplyOp,
  compileContextOp,
  configSetOp,
  importOp,
  rebuildOp,
  replayOp,
  purgeOp,
] as AnyOperation[]);
