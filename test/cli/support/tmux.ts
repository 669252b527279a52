import { execFileSync, spawnSync } from 'node:child_process';

/**
 * tmux for tests that read a terminal's screen as a person sees it. `available` is false when tmux is missing;
 * under CI=true that is an error (CI installs it), elsewhere the caller skips with the line `skipReason`.
 */
export const tmuxAvailable = spawnSync('tmux', ['-V']).status === 0;
if (!tmuxAvailable && process.env.CI === 'true')
  throw new Error('tmux is missing, and CI=true: install tmux');
export const tmuxSkipReason = 'skipped, tmux is not installed (apt-get install tmux)';

export interface TmuxServer {
  /** Starts `command` in a new 100×30 window; returns a reader of its screen (with colours when `escapes`). */
  session(name: string, command: string, env: Record<string, string>): (escapes?: boolean) => string;
  sendKeys(name: string, ...keys: string[]): void;
  kill(): void;
}

/** A tmux server of its own (`-L`), so tests never touch a user's sessions. */
export function tmuxServer(label: string): TmuxServer {
  const socket = `agent-platform-${label}-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  return {
    session(name, command, env) {
      const assignments = Object.entries({ ...env, TERM: 'xterm-256color' })
        .map(([key, value]) => `${key}=${value}`)
        .join(' ');
      // The window stays open after the command, so that its exit status can be read from the screen.
      tmux(
        'new-session',
        '-d',
        '-s',
        name,
        '-x',
        '100',
        '-y',
        '30',
        `env ${assignments} ${command}; echo EXIT=$?; sleep 60`,
      );
      return (escapes = false) => tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', name);
    },
    sendKeys: (name, ...keys) => void tmux('send-keys', '-t', name, ...keys),
    kill: () => void spawnSync('tmux', ['-L', socket, 'kill-server']),
  };
}

/** Waits until `text` is on the screen; fails with the screen after `ms`. */
export async function untilOnScreen(read: () => string, text: string, ms = 15_000): Promise<string> {
  const end = Date.now() + ms;
  for (;;) {
    const screen = read();
    if (screen.includes(text)) return screen;
    if (Date.now() > end) throw new Error(`"${text}" not on the screen:\n${screen}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
