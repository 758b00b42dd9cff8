// Inlined (and hashed for the CSP) into dist/index.html before the page's module script:
// if that script file cannot be loaded at all, say so instead of "Loading…" forever.
(function () {
  document.addEventListener(
    'error',
    function (event) {
      var target = event.target;
      if (!target || target.tagName !== 'SCRIPT' || document.documentElement.dataset.appState)
        return;
      document.documentElement.dataset.appState = 'failed';
      var status = document.querySelector('[data-loading]');
      if (!status) return;
      status.setAttribute('role', 'alert');
      status.className = 'boot-status is-error';
      status.textContent =
        'The page’s script (' +
        target.src +
        ') could not be loaded, so the explainer cannot start. ' +
        '页面脚本无法加载，演示无法启动。';
    },
    true,
  );
})();
