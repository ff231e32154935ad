import { connect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { ISocketFactory } from 'kafkajs';

const KEEP_ALIVE_MS = 60_000;

/**
 * Every socket the Kafka clients of one process open (kafkajs' own factory, recorded). After a
 * broker outage kafkajs can drop a connected broker object without disconnecting it (concurrent
 * reconnects rotate the seed broker under an in-flight connect), so `disconnect()` leaves its
 * socket open. A process that has disconnected its clients closes what is left, quietly: an
 * error here would send kafkajs down its crash-and-restart path and reconnect.
 */
export class KafkaSockets {
  private readonly open = new Set<Socket>();

  readonly factory: ISocketFactory = ({ host, port, ssl, onConnect }) => {
    const socket = ssl
      ? tlsConnect({ host, port, ...(isIP(host) ? {} : { servername: host }), ...ssl }, onConnect)
      : connect({ host, port }, onConnect);
    socket.setKeepAlive(true, KEEP_ALIVE_MS);
    this.open.add(socket);
    socket.once('close', () => this.open.delete(socket));
    return socket;
  };

  /** Destroys the sockets still open; returns how many there were. */
  destroyLeftovers(): number {
    const left = [...this.open];
    for (const socket of left) socket.destroy();
    this.open.clear();
    return left.length;
  }
}
