/**
 * A byte relay as a child process for benchmarks: every TCP connection it accepts is piped to
 * the target's host and port, both ways, without reading HTTP. It is the least a third process
 * between client and provider can cost (one read and one write per socket read), the floor
 * under any gateway's throughput on the same machine. The target URL is the first argument;
 * prints `relay listening on <url>` (the target's URL with the relay's host and port).
 */
import net from 'node:net';

const target = new URL(process.argv[2]!);
const server = net.createServer((client) => {
  const upstream = net.connect(Number(target.port), target.hostname);
  client.setNoDelay(true);
  upstream.setNoDelay(true);
  client.pipe(upstream);
  upstream.pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(target);
  url.host = `127.0.0.1:${port}`;
  console.log(`relay listening on ${url.toString().replace(/\/$/, '')}`);
});
process.on('SIGTERM', () => process.exit(0));
// Exit when the benchmark that started this process is gone.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 500).unref();
