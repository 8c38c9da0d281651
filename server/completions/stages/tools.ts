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
