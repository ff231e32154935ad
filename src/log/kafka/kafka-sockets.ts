import { connect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { ISocketFactory } from 'kafkajs';

const KEEP_ALIVE_MS = 60_000;

/**
 * Every socket the Kafka clients of one process open (kafkajs' own factory, recorded). After a
 * broker outage kafkajs can drop a connected broker object without disconnecting it (concurrent
 * reconnects rotate the seed broker under an in-flight connect): `disconnect()` then leaves its
 * socket open and its request queue's check timer rescheduling itself, and the process never
 * exits. A process that has disconnected its clients destroys what is left *with an error*, so
 * each orphan goes through kafkajs' own error path, which disconnects it and stops its timer.
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
    for (const socket of left) socket.destroy(new Error('closed after the Kafka clients were disconnected'));
    this.open.clear();
    return left.length;
  }
}
