import { describe, expect, it } from 'vitest';
import { findCodeBlock } from './code-blocks';

describe('finding the code a model wrote to run', () => {
  it('finds a closed python fence and where it ends', () => {
    const text = 'Let me compute it.\n\n```python\nprint(1 + 1)\n```\nThe answer';
    const block = findCodeBlock(text);
    expect(block?.code).toBe('print(1 + 1)');
    expect(text.slice(0, block!.end)).toBe('Let me compute it.\n\n```python\nprint(1 + 1)\n```');
  });

  it('waits for the closing fence, and skips blocks in other languages', () => {
    expect(findCodeBlock('```python\nprint(1)\n')).toBeUndefined();
    expect(findCodeBlock('```js\nconsole.log(1)\n```\n')).toBeUndefined();
    expect(findCodeBlock('```py\nx = 1\n```')?.code).toBe('x = 1');
  });

  it("takes Open WebUI's code_interpreter tag, with or without a fence inside", () => {
    expect(findCodeBlock('<code_interpreter type="code" lang="python">\nprint(2)\n</code_interpreter>')?.code.trim()).toBe('print(2)');
    expect(findCodeBlock('<code_interpreter type="code" lang="python">```python\nprint(3)\n```</code_interpreter>')?.code.trim()).toBe('print(3)');
  });

  it('ignores an empty block', () => {
    expect(findCodeBlock('```python\n\n```\n')).toBeUndefined();
  });
});
