// The win-traps page (see index.html): the shared game core as rows of cells, with a win overlay whose
// "Keep going" is a trap that leaves the page.
import { Game, exposeFixture } from '/pages/shared/game-core.js';

const game = new Game({ rows: 4, cols: 4 });
const fixture = exposeFixture(game, { trapClicks: 0 });
const board = document.querySelector('.board');
const win = document.querySelector('.win');
const scoreValue = document.querySelector('.score-value');
const squares = [];
for (let r = 0; r < game.rows; r++) {
  const row = document.createElement('div');
  row.className = 'board-row';
  for (let c = 0; c < game.cols; c++) {
    const sq = document.createElement('div');
    sq.className = 'sq';
    row.appendChild(sq);
    squares.push(sq);
  }
  board.appendChild(row);
}

const trap = document.querySelector('.trap');
const kind = new URLSearchParams(location.search).get('trap');
const elsewhere = '/pages/article-links/elsewhere.html?from=trap';
if (kind === 'anchor') {
  // The whole game in the open shadow root of an element that sits inside a link; the overlay's own
  // "Keep going" is a plain button there, and its click reaches the link.
  const link = document.createElement('a');
  link.href = elsewhere;
  link.className = 'game-link';
  const host = document.createElement('span');
  host.className = 'game-host';
  const shadow = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = Array.from(document.styleSheets[0].cssRules, (rule) => rule.cssText).join('\n') + '\n:host { display: block; }';
  shadow.append(style, document.querySelector('.board-wrap'));
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Keep going';
  trap.appendChild(button);
  link.appendChild(host);
  document.querySelector('main').appendChild(link);
  link.addEventListener('click', () => (fixture.trapClicks += 1));
} else {
  const form = document.createElement('form');
  form.action = elsewhere;
  form.method = 'get';
  const button = document.createElement('button');
  button.textContent = 'Keep going';
  form.appendChild(button);
  trap.appendChild(form);
  form.addEventListener('submit', () => (fixture.trapClicks += 1));
}

function render() {
  game.cells().flat().forEach((value, i) => {
    squares[i].textContent = value === 0 ? '' : String(value);
  });
  scoreValue.textContent = String(game.score);
  const state = game.state();
  win.hidden = state === 'playing';
  win.querySelector('.win-text').textContent = state === 'won' ? 'You win!' : 'Game over!';
}

game.subscribe(render);
render();

const KEYS = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };
document.addEventListener('keydown', (event) => {
  fixture.keysReceived += 1;
  if (event.key === 'c' || event.key === 'C') {
    game.continueAfterWin();
    return;
  }
  const direction = KEYS[event.key];
  if (!direction) return;
  event.preventDefault();
  game.move(direction);
});
