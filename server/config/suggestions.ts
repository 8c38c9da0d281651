import { PromptSuggestions, type PromptSuggestion } from '../contracts/suggestions';
import { defineSection } from './config.service';

/** What a fresh install suggests on the empty chat. */
export const DEFAULT_SUGGESTIONS: PromptSuggestion[] = [
  { title: ['Help me study', 'vocabulary for a college entrance exam'], content: 'Help me study vocabulary: write a sentence for me to fill in the blank, and I will try to pick the correct option.' },
  { title: ['Explain a concept', 'as if I were new to it'], content: 'Explain how a hash table works, as if I were new to programming.' },
  { title: ['Summarize a document', 'attach a file first'], content: 'Summarize this document in five bullet points.' },
  { title: ['Write an email', 'polite and to the point'], content: 'Write a short, polite email asking a colleague to review my report by Friday.' },
];

/** The suggested prompts (Open WebUI's `suggestion_prompts` of the UI settings), admin-editable. */
export const SuggestionsSection = defineSection('ui_suggestions', PromptSuggestions, { suggestions: DEFAULT_SUGGESTIONS });
