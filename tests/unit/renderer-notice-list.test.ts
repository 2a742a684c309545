import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_NOTICES, addNotice, removeNotice, type Notice } from '../../renderer/src/notices/notice-list';
import { useNotices } from '../../renderer/src/notices/notice-store';

const n = (id: number, message = `m${id}`, level: Notice['level'] = 'info'): Notice => ({ id, level, message });

test('newest first, at most MAX_NOTICES kept', () => {
  let list: Notice[] = [];
  for (let i = 1; i <= MAX_NOTICES + 2; i++) list = addNotice(list, n(i));
  const newest = Array.from({ length: MAX_NOTICES }, (_, i) => MAX_NOTICES + 2 - i);
  assert.deepEqual(
    list.map((x) => x.id),
    newest,
  );
});

test('a repeated message moves to the top instead of stacking; another level is another notice', () => {
  let list = addNotice(addNotice([], n(1, 'server stopped', 'warning')), n(2, 'other'));
  list = addNotice(list, n(3, 'server stopped', 'warning'));
  assert.deepEqual(
    list.map((x) => x.id),
    [3, 2],
  );
  list = addNotice(list, n(4, 'server stopped', 'error'));
  assert.deepEqual(
    list.map((x) => x.id),
    [4, 3, 2],
  );
});

test('dismissing removes only that notice', () => {
  const list = [n(3), n(2), n(1)];
  assert.deepEqual(
    removeNotice(list, 2).map((x) => x.id),
    [3, 1],
  );
  assert.deepEqual(
    removeNotice(list, 9).map((x) => x.id),
    [3, 2, 1],
  );
});

test('the notice store gives each notice its own id and dismisses by id', () => {
  const { show, dismiss } = useNotices.getState();
  show('warning', 'first');
  show('error', 'second');
  const [second, first] = useNotices.getState().notices;
  assert.equal(second?.message, 'second');
  assert.equal(first?.message, 'first');
  assert.notEqual(first?.id, second?.id);
  dismiss(second!.id);
  assert.deepEqual(
    useNotices.getState().notices.map((x) => x.message),
    ['first'],
  );
});
