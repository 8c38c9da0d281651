// bench:load's bare side: an Express app with one JSON route (the shape of a short chat list),
// in a process of its own like the service, so its RSS is set against the service's alone.
import express from 'express';

const app = express();
app.get('/health', (_req, res) => res.json({ status: true }));
app.get('/chats', (_req, res) => res.json([{ id: '1', title: 'hello' }]));
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`bare listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
