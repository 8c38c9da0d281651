// The control: a bare Express app with one /health route, started the same way as Parley.
import express from 'express';

const app = express();
app.get('/health', (_req, res) => res.json({ status: true }));
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`control listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
