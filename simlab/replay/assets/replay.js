// The replay page: unpack the steps, draw a step's board, follow the slider, keys and log (simlab/replay/page.py).
(async function () {
  const error = document.getElementById('error');
  let data;
  try {
    const bytes = Uint8Array.from(atob(document.getElementById('replay-data').textContent.trim()), c => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    data = JSON.parse(await new Response(stream).text());
  } catch (e) {
    error.textContent = 'This browser cannot unpack the replay (it needs DecompressionStream: a current Chrome, ' +
                        'Edge, Firefox or Safari). ' + e;
    return;
  }
  const steps = data.steps, last = steps.length - 1, analysis = data.analysis || {};
  // each board is stored as the change from the board before it: [pieces kept at the start, at the end, between]
  const boards = [];
  let prev = [];
  for (const [head, tail, middle] of data.boards) {
    prev = prev.slice(0, head).concat(middle, tail ? prev.slice(prev.length - tail) : []);
    boards.push(prev);
  }
  const boardHtml = i => boards[i].map(f => data.fragments[f]).join('');
  const slider = document.getElementById('slider'), counter = document.getElementById('counter');
  const board = document.getElementById('board'), decision = document.getElementById('decision');
  const log = document.getElementById('log'), views = document.getElementById('views');
  const panel = document.getElementById('analysis');
  slider.max = String(last);
  let step = 0, view = 0;
  const items = [];
  steps.forEach((s, i) => {
    const head = document.createElement('li');
    head.className = 'head'; head.dataset.step = i;
    head.textContent = i === 0 ? 'Set-up' : `Step ${i}: ` + (s.seat === null ? '' : `seat ${s.seat} (${data.seats[s.seat]}) `) + s.decision;
    const group = [head];
    s.log.forEach(line => { const li = document.createElement('li'); li.dataset.step = i; li.textContent = line; group.push(li); });
    if (analysis.turned && analysis.turned.includes(i)) group.forEach(li => li.classList.add('turned'));
    group.forEach(li => { li.addEventListener('click', () => go(i)); log.appendChild(li); });
    items.push(group);
  });
  const names = ['Referee (everything)', ...data.seats.map((p, s) => `Seat ${s} (${p})`)];
  names.forEach((name, v) => {
    const b = document.createElement('button');
    b.textContent = name; b.dataset.view = v; b.setAttribute('aria-pressed', v === 0 ? 'true' : 'false');
    b.addEventListener('click', () => { view = v; show(); });
    views.appendChild(b);
  });
  const marks = document.getElementById('marks');
  (analysis.turned || []).forEach(i => {
    const m = document.createElement('span'); m.style.left = `calc(${(100 * i / Math.max(last, 1)).toFixed(3)}% - 2px)`;
    m.title = `step ${i}: the game turned here`; marks.appendChild(m);
  });
  function fmt(x) { return x === null || x === undefined ? '–' : (x >= 0 ? '' : '−') + Math.abs(x).toFixed(3); }
  function showAnalysis() {
    const a = (analysis.decisions || {})[String(step)];
    if (!panel) return;
    if (!a) { panel.innerHTML = ''; return; }
    let rows = a.alternatives.map(alt => `<tr class="${alt.played ? 'played' : ''}"><td>${alt.played ? '▶ ' : ''}${escapeHtml(alt.action)}</td>` +
      `<td class="num">${fmt(alt.value)}</td><td class="num">${alt.lo === null ? '' : `[${fmt(alt.lo)}, ${fmt(alt.hi)}]`}</td><td class="num">${alt.visits}</td></tr>`).join('');
    const more = a.n - a.alternatives.length;
    panel.innerHTML = `<p>Seat ${a.seat}'s decision, valued by search from its own view (${escapeHtml(a.method)}): ` +
      (a.loss === null ? 'the move played was not searched.</p>' :
       `the move played lost <span class="lost">${fmt(a.loss)}</span> win share against the search's choice.</p>`) +
      `<table><thead><tr><th>move (best first)</th><th>value</th><th>95% interval</th><th>playouts</th></tr></thead>` +
      `<tbody>${rows}</tbody></table>` +
      (more > 0 ? `<p class="help">${more} other legal move${more === 1 ? '' : 's'} not shown` +
       (a.untried > 0 ? ` (${a.untried} never tried by the search)` : '') + '.</p>' : '');
  }
  function escapeHtml(t) { const d = document.createElement('div'); d.textContent = t; return d.innerHTML; }
  function show() {
    const s = steps[step];
    board.innerHTML = boardHtml(s.views[view]);
    slider.value = String(step);
    counter.textContent = `step ${step} of ${last}`;
    decision.innerHTML = '';
    const who = document.createElement('span'); who.className = 'who';
    who.textContent = step === 0 ? 'Set-up' : (s.seat === null ? '' : `Seat ${s.seat} (${data.seats[s.seat]}): `);
    decision.appendChild(who);
    decision.appendChild(document.createTextNode(step === 0 ? '' : s.decision));
    if (s.to_act !== null) decision.appendChild(document.createTextNode(`  · next to act: seat ${s.to_act}`));
    views.querySelectorAll('button').forEach(b => b.setAttribute('aria-pressed', Number(b.dataset.view) === view ? 'true' : 'false'));
    log.querySelectorAll('li.current').forEach(li => li.classList.remove('current'));
    items[step].forEach(li => li.classList.add('current'));
    items[step][0].scrollIntoView({block: 'nearest'});
    showAnalysis();
    document.body.dataset.step = String(step); document.body.dataset.view = String(view);
  }
  function go(i) { step = Math.max(0, Math.min(last, i)); show(); }
  slider.addEventListener('input', () => go(Number(slider.value)));
  document.getElementById('first').addEventListener('click', () => go(0));
  document.getElementById('prev').addEventListener('click', () => go(step - 1));
  document.getElementById('next').addEventListener('click', () => go(step + 1));
  document.getElementById('end').addEventListener('click', () => go(last));
  document.addEventListener('keydown', e => {
    if (e.target === slider && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) return;  // the slider moves itself
    if (e.key === 'ArrowLeft') { go(step - 1); e.preventDefault(); }
    else if (e.key === 'ArrowRight') { go(step + 1); e.preventDefault(); }
    else if (e.key === 'Home') { go(0); e.preventDefault(); }
    else if (e.key === 'End') { go(last); e.preventDefault(); }
    else if (e.key === 'v' || e.key === 'V') { view = (view + 1) % names.length; show(); }
  });
  show();
  document.body.dataset.ready = 'true';
})();
