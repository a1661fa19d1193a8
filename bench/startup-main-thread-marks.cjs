// Preloaded (`node -r`) into a print run by bench/startup-main-thread.mjs: when the first socket
// connects (the model request), writes on stderr the wall ms since the process started, the CPU ms of
// all threads, and the main thread's own ms on a CPU and waiting for one (Linux schedstat). On a
// loaded machine wall time is mostly waiting for a CPU; what is left (wall − on CPU − waiting) is the
// time the main thread slept on I/O or timers. Only for measuring: it wraps net.Socket#connect.
const { readFileSync } = require('node:fs');
const net = require('node:net');

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  net.Socket.prototype.connect = connect;
  const cpu = process.cpuUsage();
  let schedstat = [Number.NaN, Number.NaN];
  try {
    schedstat = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'latin1').split(' ').map(Number);
  } catch {
    // Not Linux: the main thread's columns stay NaN.
  }
  const [onCpu, waiting] = schedstat.map((ns) => ns / 1e6);
  process.stderr.write(
    `first-connect ${performance.now().toFixed(2)} ${((cpu.user + cpu.system) / 1000).toFixed(2)} ${onCpu.toFixed(2)} ${waiting.toFixed(2)}\n`,
  );
  return connect.apply(this, args);
};
