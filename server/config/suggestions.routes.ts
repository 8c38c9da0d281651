import { Router } from 'express';
import { PromptSuggestions } from '../contracts/suggestions';
import { validateBody } from '../platform/http/validate';
import { requireAdmin, requireUser } from '../session';
import type { ConfigService } from './config.service';
import { SuggestionsSection } from './suggestions';

/** `/api/v1/configs/suggestions`: any user reads the suggested prompts, admins replace the list. */
export function suggestionsRoutes(config: ConfigService): Router {
  const router = Router();
  router.get('/', requireUser, async (_req, res) => {
    res.json(await config.get(SuggestionsSection));
  });
  router.post('/', requireAdmin, validateBody(PromptSuggestions), async (req, res) => {
    res.json(await config.set(SuggestionsSection, req.body as PromptSuggestions));
  });
  return router;
}
