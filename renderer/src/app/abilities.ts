import { useSession } from './session';

/** What the signed-in person may use of the features an administrator can switch off or withhold. */
export interface Abilities {
  /** Notes: ENABLE_NOTES on and `features.notes` held. */
  notes: boolean;
  /** Memories: `features.memories` held. */
  memories: boolean;
  /** Making things public (`access_control: null`): admins, or `sharing.public_*` held (models and prompts share one). */
  makePublic: { models: boolean; knowledge: boolean; notes: boolean };
}

/** The features this person may use now (controls for the others are not shown). */
export function useAbilities(): Abilities {
  const { state } = useSession();
  if (state.status !== 'signedIn') return { notes: false, memories: false, makePublic: { models: false, knowledge: false, notes: false } };
  const admin = state.user.role === 'admin';
  const features = state.user.permissions?.features;
  const sharing = state.user.permissions?.sharing;
  return {
    notes: state.config?.features.enable_notes !== false && (admin || features?.notes !== false),
    memories: admin || features?.memories !== false,
    makePublic: { models: admin || sharing?.public_models === true, knowledge: admin || sharing?.public_knowledge === true, notes: admin || sharing?.public_notes === true },
  };
}
