/**
 * Which part of the content script runs a command: the autopilot (Driver) or coach mode (Coach), and the
 * arrow overlay for a Hint. Coach mode and the autopilot exclude each other: Solve or Step ends coaching,
 * Coach stops the autopilot first. A Hint while coaching answers with the coach's search of the board
 * shown (a second search would replace it); a Hint otherwise also points its move on the board until the
 * person's next input or the next command.
 */
import type { Command, ReplyOf } from '../shared/messages';
import type { Settings } from '../shared/settings';
import type { Coach } from './coach';
import type { Driver } from './driver';
import type { ArrowOverlay } from './overlay';

type CommandReply = ReplyOf<'content/command'>;

const HINT_ENDS_ON = ['keydown', 'pointerdown', 'touchstart'] as const;

export class CommandRouter {
  private endHint: (() => void) | null = null;

  constructor(
    private readonly driver: Pick<Driver, 'handleCommand' | 'getStatus' | 'isRunning' | 'boards'>,
    private readonly coach: Pick<Coach, 'start' | 'stop' | 'isActive' | 'currentChoice'>,
    private readonly overlay: Pick<ArrowOverlay, 'show' | 'hide'>,
    private readonly win: Window,
  ) {}

  async handle(command: Command, settings: Settings): Promise<CommandReply> {
    this.clearHint();
    switch (command) {
      case 'coach':
        if (this.driver.isRunning) await this.driver.handleCommand('stop', settings);
        await this.coach.start();
        return { status: this.driver.getStatus() };
      case 'coach-stop':
        this.coach.stop();
        return { status: this.driver.getStatus() };
      case 'hint':
        return this.coach.isActive ? this.coachHint() : this.hint(settings);
      case 'solve':
      case 'step':
      case 'stop':
        this.coach.stop();
        return this.driver.handleCommand(command, settings);
    }
  }

  private coachHint(): CommandReply {
    const choice = this.coach.currentChoice();
    return choice ? { hint: choice, status: this.driver.getStatus() } : { status: this.driver.getStatus() };
  }

  private async hint(settings: Settings): Promise<CommandReply> {
    const reply = await this.driver.handleCommand('hint', settings);
    const move = reply.hint?.move;
    const adapter = this.driver.boards.current;
    if (move && adapter && !this.driver.isRunning) {
      this.overlay.show(move, () => adapter.boardRect());
      const end = (event: Event): void => {
        if (event.isTrusted) this.clearHint();
      };
      for (const type of HINT_ENDS_ON) this.win.addEventListener(type, end, { capture: true, passive: true });
      this.endHint = () => {
        for (const type of HINT_ENDS_ON) this.win.removeEventListener(type, end, { capture: true });
      };
    }
    return reply;
  }

  /** The content script stands down: coaching ends, the Hint's listeners and the arrow go. */
  dispose(): void {
    this.clearHint();
    this.coach.stop();
    this.overlay.hide();
  }

  /** The Hint's arrow goes (the coach's own arrow is the coach's to manage). */
  private clearHint(): void {
    if (!this.endHint) return;
    this.endHint();
    this.endHint = null;
    if (!this.coach.isActive) this.overlay.hide();
  }
}
