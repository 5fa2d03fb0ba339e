import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy between a server and PostgreSQL that a test can cut and restore: `cut('refuse')`
 * drops every connection and refuses new ones (the database is down), `cut('blackhole')` drops
 * every connection and accepts new ones that never answer (a network that swallows packets).
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private mode: 'open' | 'refuse' | 'blackhole' = 'open';
  private server: Server | undefined;
  port = 0;
  connections = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<this> {
    await this.listen(0);
    return this;
  }

  private listen(port: number): Promise<void> {
    const server = createServer((client) => this.accept(client));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        if (typeof address === 'object' && address) this.port = address.port;
        resolve();
      });
    });
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  private accept(client: Socket): void {
    this.track(client);
    if (this.mode === 'blackhole') return; // held open, never forwarded
    this.connections++;
    const upstream = connect(this.target.port, this.target.host);
    this.track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  async cut(mode: 'refuse' | 'blackhole'): Promise<void> {
    this.mode = mode;
    for (const socket of this.sockets) socket.destroy();
    if (mode === 'refuse' && this.server?.listening) {
      const server = this.server;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    if (mode === 'blackhole' && !this.server?.listening) await this.listen(this.port);
  }

  async restore(): Promise<void> {
    if (this.mode === 'blackhole') for (const socket of this.sockets) socket.destroy();
    if (!this.server?.listening) await this.listen(this.port);
    this.mode = 'open';
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    if (server?.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
