import { describe, expect, it } from 'vitest';
import { findMentions, withoutCode } from './mentions';

const members = [
  { id: 'u-ann', name: 'Ann' },
  { id: 'u-annlee', name: 'Ann Lee' },
  { id: 'u-bo', name: 'Bo' },
];
const models = [
  { id: 'gpt-4o-mini', name: 'GPT mini' },
  { id: 'llama3:8b', name: 'Llama' },
  { id: 'org/model.v2', name: 'Org model' },
];
const find = (text: string) => findMentions(text, members, async () => models);

describe('findMentions', () => {
  it('finds members by name, the longest name first, once each, case-insensitively', async () => {
    expect((await find('@Ann Lee and @ann and @ANN LEE, also @Bo!')).userIds).toEqual(['u-annlee', 'u-ann', 'u-bo']);
  });

  it('leaves a person for a model whose id goes on from their name', async () => {
    const found = await findMentions('@bench-model go, and @Bench too', [{ id: 'u-bench', name: 'Bench' }], async () => [{ id: 'bench-model', name: 'Bench model' }]);
    expect(found).toEqual({ userIds: ['u-bench'], everyone: false, modelId: 'bench-model' });
    expect((await find('@Ann-Marie, @Ann.')).userIds).toEqual(['u-ann']);
  });

  it('does not match a name inside a longer word or an email address', async () => {
    const found = await find('@Annabel wrote to ann@example.com and bo@x.org');
    expect(found.userIds).toEqual([]);
    expect(found.modelId).toBeUndefined();
  });

  it('sees @all, @here and @everyone as everyone, not @allison', async () => {
    expect((await find('@all please')).everyone).toBe(true);
    expect((await find('(@here)')).everyone).toBe(true);
    expect((await find('@Everyone')).everyone).toBe(true);
    expect((await find('@allison')).everyone).toBe(false);
  });

  it('finds the first model by id (dots, colons and slashes included) or by name', async () => {
    expect((await find('@llama3:8b what now?')).modelId).toBe('llama3:8b');
    expect((await find('ask @org/model.v2.')).modelId).toBe('org/model.v2');
    expect((await find('@GPT mini summarise, then @llama3:8b')).modelId).toBe('gpt-4o-mini');
    expect((await find('@gpt-4o-mini-large')).modelId).toBeUndefined();
  });

  it('ignores mentions in code', async () => {
    const found = await find('```\n@Ann\n```\nand `@Bo` and @all in `x`');
    expect(found).toEqual({ userIds: [], everyone: true });
    expect(withoutCode('a `@b` c')).toBe('a      c');
  });

  it('asks for the models only when an @ is left after people', async () => {
    let asked = 0;
    await findMentions('@Ann hi', members, async () => (asked += 1, models));
    expect(asked).toBe(0);
    await findMentions('@someone hi', members, async () => (asked += 1, models));
    expect(asked).toBe(1);
  });

  it('stays fast on hostile input', async () => {
    const started = performance.now();
    await find('@'.repeat(16_000));
    await find('@a'.repeat(8_000));
    await findMentions('@ '.repeat(8_000), Array.from({ length: 500 }, (_, i) => ({ id: `u${i}`, name: `Person ${i}` })), async () => models);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
