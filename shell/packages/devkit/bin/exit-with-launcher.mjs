// Preloaded (`node --import`) into every child the launcher supervises. When the launcher's IPC channel closes
// (the launcher ended, even by SIGKILL), the child shuts down as on SIGTERM instead of running on as an orphan.
if (process.channel) {
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  // The channel alone must not keep a child alive that has finished its work.
  process.channel.unref();
}
