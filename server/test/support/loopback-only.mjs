// Loaded into every server test process (test/run.mjs: --import): no test may connect to anything but a loopback
// address. A socket asked to connect elsewhere, to an address or to a host name that resolves elsewhere, fails with
// an error instead of connecting, and the process then fails too, naming it: a test that would reach the network (a
// real push service, a calendar on the internet) is caught however it came to connect (a URL, DNS, a redirect).
// Unix sockets are local and not checked.
import { lookup as dnsLookup } from 'node:dns';
import { isIP, Socket } from 'node:net';

const refused = [];

function isLoopback(address) {
  const plain = address.replace(/^::ffff:/i, '');
  return (isIP(plain) === 4 && plain.startsWith('127.')) || plain === '::1';
}

function refusal(target) {
  refused.push(target);
  return Object.assign(new Error(`The tests may only connect to loopback addresses, not ${target}`), {
    code: 'ETESTNOTLOOPBACK',
  });
}

// Every client socket, TLS ones included, connects through Socket.prototype.connect (the net.client.socket
// diagnostics channel misses tls.connect's sockets), so the check wraps it.
const connect = Socket.prototype.connect;
Socket.prototype.connect = function checkedConnect(...given) {
  let args = given;
  let options;
  // net.connect passes its normalised [options, callback] as one argument; tls passes (options, callback); others
  // (pg) (port, host, callback), which becomes the options form here so a host name's lookup can be checked.
  if (Array.isArray(args[0])) options = args[0][0];
  else if (args[0] !== null && typeof args[0] === 'object') options = args[0];
  else if (typeof args[0] === 'number' || /^\d+$/.test(String(args[0]))) {
    const callback = args.find((arg) => typeof arg === 'function');
    options = { port: Number(args[0]), ...(typeof args[1] === 'string' ? { host: args[1] } : {}) };
    args = callback ? [options, callback] : [options];
  }
  if (options && typeof options === 'object' && options.path == null) {
    const host = options.host ?? 'localhost';
    if (isIP(host) !== 0 && !isLoopback(host)) {
      const error = refusal(`${host}:${options.port}`);
      process.nextTick(() => this.destroy(error));
      return this;
    }
    if (isIP(host) === 0) {
      const lookup = options.lookup ?? dnsLookup;
      // In place: the normalised arguments carry a marker the socket looks for.
      options.lookup = (name, lookupOptions, callback) => {
        lookup(name, lookupOptions, (error, address, family) => {
          if (error) return callback(error, address, family);
          const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address];
          const stray = addresses.find((entry) => !isLoopback(entry));
          if (stray !== undefined) return callback(refusal(`${name} (${stray}):${options.port}`));
          callback(null, address, family);
        });
      };
    }
  }
  return connect.apply(this, args);
};

process.on('exit', () => {
  if (refused.length === 0) return;
  process.stderr.write(`\nConnections to non-loopback addresses were refused: ${refused.join(', ')}\n`);
  process.exitCode = 1;
});
