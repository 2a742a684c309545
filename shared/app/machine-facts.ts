/**
 * Facts about the machine that a process reads once and keeps: the linker's cache, its default
 * folders, the loader library it mapped, whether it runs elevated. Kept per process because they
 * change only when packages are installed, and a command reads them once.
 *
 * The CLI's startup snapshot (bin/cli-snapshot.cjs, issue #19) is the heap of a process that ran
 * warm-up commands on the build machine: a fact read then must never reach the processes started
 * from it. Each fact is declared here, and the snapshot's builder forgets them all before the heap
 * is written (tests/integration/cli-snapshot.test.ts checks one of them end to end).
 */
const forgetters: (() => void)[] = [];

/** `read` run on first use and its value kept, until forgetMachineFacts(). */
export function machineFact<T>(read: () => T): () => T {
  let fact: { value: T } | null = null;
  forgetters.push(() => {
    fact = null;
  });
  return () => (fact ??= { value: read() }).value;
}

/** Forgets every fact read so far: each is read again on its next use. */
export function forgetMachineFacts(): void {
  for (const forget of forgetters) forget();
}
