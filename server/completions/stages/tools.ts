import type { ToolResolver, ToolSet } from '../pipeline-types';

/** A tool set with nothing in it. */
export const EMPTY_TOOLS: ToolSet = {
  specs: [],
  execute: async (call) => {
    throw new Error(`No tool named ${call.function.name} is available`);
  },
};

/** No tools engine registered yet: the model gets no tools. */
export const noTools: ToolResolver = async () => EMPTY_TOOLS;

/** Two tool sets as one: calls go to the set that offers the function (prompt calling stays the first set's). */
export function mergeToolSets(first: ToolSet, second: ToolSet): ToolSet {
  if (second.specs.length === 0) return first;
  const secondNames = new Set(second.specs.map((spec) => spec.function.name));
  return {
    specs: [...first.specs.filter((spec) => !secondNames.has(spec.function.name)), ...second.specs],
    execute: (call, signal) => (secondNames.has(call.function.name) ? second.execute(call, signal) : first.execute(call, signal)),
    ...(first.promptCalls ? { promptCalls: first.promptCalls } : {}),
  };
}
