/**
 * The yardstick for bench/api.ts: a bare Fastify answering a fixed JSON envelope, with no
 * logger, plugins or database. Listens on 127.0.0.1:$PORT.
 */
import Fastify from 'fastify';

const body = { code: 0, msg: 'ok', data: { price: '0.85', totalUsers: 1234, pools: ['1000.00', '2000.00'] } };
const app = Fastify({ logger: false });
app.get('/bare', async () => body);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
