// Without isolation headers from the host, a service worker adds them and the page reloads once.
if (!self.crossOriginIsolated && self.isSecureContext && 'serviceWorker' in navigator && !sessionStorage.getItem('ranks:sw-reloaded')) {
  navigator.serviceWorker.register('/isolation-sw.js').then(() => navigator.serviceWorker.ready).then(() => {
    sessionStorage.setItem('ranks:sw-reloaded', '1');
    location.reload();
  }, () => {});
}
