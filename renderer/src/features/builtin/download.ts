/** A download's progress as a fraction (0 when the size is unknown). */
export function fractionOf(model: { downloaded: number; size: number }): number {
  return model.size > 0 ? Math.min(1, model.downloaded / model.size) : 0;
}
