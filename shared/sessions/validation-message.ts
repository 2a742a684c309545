import type { MessageObject, Severity } from './session-records';
import { objectTypeName } from './vk-object-types';

/**
 * The Khronos validation layer's log_msg output (VK_DBG_LAYER_ACTION_LOG_MSG; 1.3.239's
 * MessengerLogCallback in vk_layer_logging.h): one fprintf per message, then fflush —
 *
 *   VUID-VkBufferCreateInfo-size-00912(ERROR / SPEC): msgNum: 2085897310 - Validation Error: [ VUID-… ] Object 0: handle = 0x55…, name = dev, type = VK_OBJECT_TYPE_DEVICE; | MessageID = 0x7c54445e | vkCreateBuffer: … (https://…#VUID-VkBufferCreateInfo-size-00912)
 *       Objects: 1
 *           [0] 0x55…, type: 3, name: dev
 *
 * pMessage may itself hold line breaks, so the lines between the first and "Objects:" belong to it.
 */
export interface ValidationHeader {
  vuid: string;
  severity: Severity;
  types: string[];
  messageId: number;
  /** The first line of pMessage. */
  text: string;
}

const HEADER = /^(\S+?)\(([A-Z_]+(?:[,|] ?[A-Z_]+)*) \/ ([A-Z_]+(?:[,|] ?[A-Z_]+)*)\): msgNum: (-?\d+) - (.*)$/;
const OBJECTS = /^ {4}Objects: (\d+)$/;
const OBJECT = /^ {8}\[(\d+)\] (\S+), type: (-?\d+), name: (.*)$/;
/** The object list inside pMessage names the type: "Object 1: handle = 0x1…, name = leaked, type = VK_OBJECT_TYPE_BUFFER;". */
const INLINE_OBJECT = /Object (\d+): handle = [^,;]+,(?: name = .*?,)? type = (VK_OBJECT_TYPE_\w+);/g;

const SEVERITY_WORDS: Record<string, Severity> = { ERROR: 'error', WARN: 'warning', WARNING: 'warning', INFO: 'info', VERBOSE: 'verbose' };
const SEVERITY_ORDER: readonly Severity[] = ['error', 'warning', 'info', 'verbose'];

export function parseValidationHeader(text: string): ValidationHeader | null {
  // Most lines are not messages; a plain substring test is far cheaper than the expression.
  if (!text.includes('): msgNum: ')) return null;
  const m = HEADER.exec(text);
  if (!m) return null;
  const words = m[2]!.split(/[,|] ?/);
  const found = new Set(words.map((w) => SEVERITY_WORDS[w]).filter((s): s is Severity => s !== undefined));
  const severity = SEVERITY_ORDER.find((s) => found.has(s));
  if (!severity) return null;
  return { vuid: m[1]!, severity, types: m[3]!.split(/[,|] ?/), messageId: Number(m[4]), text: m[5]! };
}

export function parseObjectsLine(text: string): number | null {
  const m = OBJECTS.exec(text);
  return m ? Number(m[1]) : null;
}

export function parseObjectLine(text: string): Omit<MessageObject, 'typeName'> | null {
  const m = OBJECT.exec(text);
  if (!m) return null;
  const name = m[4]!;
  // The layer prints "NULL" for an unnamed object; an object really named "NULL" reads the same.
  return { index: Number(m[1]), handle: m[2]!, type: Number(m[3]), name: name === 'NULL' ? null : name };
}

/** Type names as pMessage spells them, by object index. */
export function inlineObjectTypes(text: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const m of text.matchAll(INLINE_OBJECT)) out.set(Number(m[1]), m[2]!);
  return out;
}

/** A message being read, line by line. */
export interface PendingMessage {
  header: ValidationHeader;
  firstSeq: number;
  lastSeq: number;
  t: number;
  wall: number;
  textLines: string[];
  /** null until the "Objects: N" line. */
  expected: number | null;
  objects: Omit<MessageObject, 'typeName'>[];
}

export type ValidationStep =
  /** The line belongs to the pending message (its first line, a continuation, or an object). */
  | { kind: 'part'; done: boolean }
  /** The line is not part of a message. */
  | { kind: 'other' };

/**
 * Feeds lines of one stream into the message being read. Returns whether the line was part of a
 * message and whether that message is now complete; `pending` is where the message lives.
 */
export function stepValidation(state: { pending: PendingMessage | null }, text: string, seq: number, _t: number, _wall: number): ValidationStep {
  const p = state.pending;
  if (p && p.expected === null) {
    const count = parseObjectsLine(text);
    if (count !== null) {
      p.expected = count;
      p.lastSeq = seq;
      return { kind: 'part', done: count === 0 };
    }
    // A new header means the previous message lost its object list; the caller flushes it first.
    if (parseValidationHeader(text) === null) {
      p.textLines.push(text);
      p.lastSeq = seq;
      return { kind: 'part', done: false };
    }
    return { kind: 'other' };
  }
  if (p && p.expected !== null) {
    const object = parseObjectLine(text);
    if (object) {
      p.objects.push(object);
      p.lastSeq = seq;
      return { kind: 'part', done: p.objects.length >= p.expected };
    }
    return { kind: 'other' };
  }
  return { kind: 'other' };
}

export function startMessage(header: ValidationHeader, seq: number, t: number, wall: number): PendingMessage {
  return { header, firstSeq: seq, lastSeq: seq, t, wall, textLines: [header.text], expected: null, objects: [] };
}

/** The objects with their type names: pMessage's own spelling first, Strata's VkObjectType table second. */
export function finishObjects(p: PendingMessage, text: string): MessageObject[] {
  const inline = inlineObjectTypes(text);
  // Object.assign, not a leading spread: one hidden class for every object on Node 20 (docs/architecture.md, "Object shapes on Node 20").
  return p.objects.map((o) => Object.assign({}, o, { typeName: inline.get(o.index) ?? objectTypeName(o.type) }));
}

export function messageComplete(p: PendingMessage): boolean {
  return p.expected !== null && p.objects.length >= p.expected;
}
