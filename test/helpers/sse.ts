/** The JSON frames of a streamed completion (`data: …` lines, `[DONE]` left out), parsed. */
export function sseFrames(text: string): Array<Record<string, any>> {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)) as Record<string, any>);
}
