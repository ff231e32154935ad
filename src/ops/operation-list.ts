import { contextPackOp } from './operations/context-pack.js';
import { coreAckOp } from './operations/core-ack.js';
import { coreStatusOp } from './operations/core-status.js';
import type { Operation } from './operations/operation.js';
import { deletePageOp, getPageOp, listPagesOp, putPageOp } from './operations/page-operations.js';
import { volunteerContextOp } from './operations/volunteer-context.js';
import { forgetOp, listFactsOp, rememberOp } from './remember-operations.js';

/**
 * Every operation of this build, listed once: `call`, the MCP server and serve all look names up
 * here, so what one surface can run, the others can (each within the operation's access rule).
 * Nothing is added at run time.
 */
export const OPERATIONS: readonly Operation[] = Object.freeze([
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
] as Operation[]);
