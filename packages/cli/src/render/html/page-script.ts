/**
 * The page's one script, inline and allowed by its hash: it digests each embedded kept file again
 * with WebCrypto and marks, beside it, whether the SHA-256 and size are those the record holds.
 * It reads the embedded bytes as data (base64 in a block of a type no browser runs) and writes
 * only `textContent`, so nothing it reads is ever parsed as markup or run.
 */
export const PAGE_SCRIPT = `
(function () {
  'use strict';
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr[data-embedded]'));
  var summary = document.getElementById('digest-summary');
  function hex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
  }
  function bytesOf(base64) {
    var text = atob(base64);
    var out = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i += 1) out[i] = text.charCodeAt(i);
    return out;
  }
  function mark(row, state, words) {
    var cell = row.querySelector('.mark');
    cell.textContent = words;
    cell.className = 'mark ' + state;
    row.setAttribute('data-state', state);
  }
  function check(row) {
    // A cut file keeps the renderer's words: how much the page holds, and what the whole file read as.
    if (row.getAttribute('data-cut') === 'true') return Promise.resolve('cut');
    var block = document.getElementById(row.getAttribute('data-embedded'));
    var bytes;
    try { bytes = bytesOf((block ? block.textContent : '').replace(/\\s+/g, '')); } catch (error) {
      mark(row, 'differs', 'does not match: the embedded bytes are not readable');
      return Promise.resolve('differs');
    }
    return crypto.subtle.digest('SHA-256', bytes).then(function (digest) {
      var sha256 = hex(digest);
      var same = sha256 === row.getAttribute('data-sha256') && String(bytes.length) === row.getAttribute('data-bytes');
      mark(row, same ? 'matches' : 'differs', same ? 'matches' : 'does not match (here: ' + bytes.length + ' bytes, sha256 ' + sha256 + ')');
      return same ? 'matches' : 'differs';
    });
  }
  function say(words, state) {
    if (!summary) return;
    summary.textContent = words;
    summary.className = 'mark ' + state;
  }
  if (!window.crypto || !window.crypto.subtle) {
    rows.forEach(function (row) { mark(row, 'unchecked', 'not recomputed: this browser gives no WebCrypto here'); });
    say('not recomputed: this browser gives no WebCrypto here', 'unchecked');
    return;
  }
  Promise.all(rows.map(check)).then(function (states) {
    var matches = states.filter(function (s) { return s === 'matches'; }).length;
    var differs = states.filter(function (s) { return s === 'differs'; }).length;
    var words = matches + ' of ' + states.length + ' embedded files match their records' + (differs > 0 ? '; ' + differs + ' do not' : '');
    say(words, differs > 0 ? 'differs' : matches === states.length ? 'matches' : 'cut');
  });
})();
`;
