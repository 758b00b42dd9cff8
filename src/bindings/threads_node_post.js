// Appended to the wasm threads build's Node glue (attention-threads-node.cjs, --post-js): its
// helper threads are worker_threads, and a Worker keeps Node's process alive. Once the team
// has started (the loader calls this after set_threads), its Workers stop counting, so that
// a script using createAttention({ threads }) exits when it is done, as with one thread.
Module['unrefHelperWorkers'] = function () {
  PThread.unusedWorkers.concat(PThread.runningWorkers).forEach(function (worker) {
    worker.unref();
  });
};
