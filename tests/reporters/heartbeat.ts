/**
 * A line every few minutes naming what the run is waiting for: the stack's global setup, or the test
 * files that are running and for how long. The default reporter prints a file only when it ends, so a
 * run that hangs (a stuck stack start, a file in an endless loop) used to leave CI's log silent until
 * it was killed; with this it says where it stands.
 */
import type { Reporter, TestModule, TestSpecification } from 'vitest/node';

const DEFAULT_INTERVAL_MS = 120_000;

export default class HeartbeatReporter implements Reporter {
  private readonly started = Date.now();
  private readonly running = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private runStarted = false;
  private finished = 0;
  // Not a constructor parameter: Vitest passes a reporter's options there.
  private readonly intervalMs = Number(process.env.TEST_HEARTBEAT_MS) || DEFAULT_INTERVAL_MS;

  onInit() {
    this.timer = setInterval(() => this.beat(), this.intervalMs);
    this.timer.unref();
  }

  onTestRunStart(_specifications: ReadonlyArray<TestSpecification>) {
    this.runStarted = true;
  }

  onTestModuleStart(module: TestModule) {
    this.running.set(label(module), Date.now());
  }

  onTestModuleEnd(module: TestModule) {
    this.running.delete(label(module));
    this.finished++;
  }

  onTestRunEnd() {
    if (this.timer) clearInterval(this.timer);
  }

  private beat() {
    const now = Date.now();
    const head = `[heartbeat ${minutes(now - this.started)}] ${this.finished} files done`;
    if (this.running.size === 0) {
      const waiting = this.runStarted ? 'global setup or the next file' : 'the run to start';
      process.stdout.write(`${head}; waiting for ${waiting}\n`);
      return;
    }
    const files = [...this.running]
      .sort((a, b) => a[1] - b[1])
      .map(([file, since]) => `${file} (${minutes(now - since)})`);
    process.stdout.write(`${head}; running: ${files.join(', ')}\n`);
  }
}

function label(module: TestModule): string {
  return `${module.project.name}:${module.relativeModuleId}`;
}

function minutes(ms: number): string {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}
