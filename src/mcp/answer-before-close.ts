import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type Id = string | number;
const requestId = (m: JSONRPCMessage): Id | null => ('method' in m && 'id' in m ? (m.id as Id) : null);
const responseId = (m: JSONRPCMessage): Id | null => (!('method' in m) && 'id' in m ? (m.id as Id) : null);

/**
 * Closes `transport` once every request it has received is answered — for a client that sends
 * its requests and closes its end (`printf … | brainstream mcp`): nothing it asked is dropped.
 * Call after the server is connected (the transport's handlers are in place).
 */
export function closeWhenAnswered(transport: Transport): () => void {
  const pending = new Set<Id>();
  let closing = false;
  const closeIfDone = (): void => {
    if (closing && pending.size === 0) void transport.close();
  };
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const id = requestId(message);
    if (id !== null) pending.add(id);
    receive?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } finally {
      const id = responseId(message);
      if (id !== null && pending.delete(id)) closeIfDone();
    }
  };
  return () => {
    closing = true;
    closeIfDone();
  };
}
