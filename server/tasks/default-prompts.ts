/**
 * Parley's built-in task prompts, used when a template setting is empty. Placeholders are
 * expanded by `renderTemplate` (see template.ts); each asks for JSON that `extractJson` reads.
 */

export const DEFAULT_TITLE_PROMPT = `### Task
Write a short title (3 to 6 words) that says what the conversation below is about.

### Rules
- Use the main language of the conversation (English if unsure).
- Plain words only: no quotation marks, no Markdown, no trailing full stop.
- Name the topic, not the people ("Sourdough starter feeding schedule", not "User asks about bread").

### Answer
Only this JSON, nothing else: {"title": "<the title>"}

### Conversation
<conversation>
{{MESSAGES:END:2}}
</conversation>`;

export const DEFAULT_TAGS_PROMPT = `### Task
Classify the conversation below with 1 to 3 broad subject tags (such as Science, Technology,
Health, Finance, Education, Entertainment) followed by 1 to 3 more specific topic tags.

### Rules
- Short tags of one or two words, in the main language of the conversation (English if unsure).
- If the conversation is too short to classify, answer a single "General" tag.

### Answer
Only this JSON, nothing else: {"tags": ["Tag1", "Tag2"]}

### Conversation
<conversation>
{{MESSAGES:END:6}}
</conversation>`;

export const DEFAULT_FOLLOW_UP_PROMPT = `### Task
Suggest 3 to 5 questions the user might ask next, written from the user's point of view,
that follow naturally from the conversation below and dig deeper into its topic.

### Rules
- Each is one short, self-contained question, in the main language of the conversation.
- Do not repeat what was already asked or answered.

### Answer
Only this JSON, nothing else: {"follow_ups": ["Question 1?", "Question 2?", "Question 3?"]}

### Conversation
<conversation>
{{MESSAGES:END:6}}
</conversation>`;

export const DEFAULT_AUTOCOMPLETE_PROMPT = `### Task
Continue the text the user is typing ({{TYPE}}) with the few words they most likely type next.

### Rules
- Answer only the continuation, never the text already typed.
- Keep it short (a few words up to one sentence) and match the language and tone.
- If no good continuation exists, answer an empty text.

### Answer
Only this JSON, nothing else: {"text": "<the continuation>"}

### Conversation so far
<conversation>
{{MESSAGES:END:6}}
</conversation>

### Text being typed
<text>{{prompt}}</text>`;

export const DEFAULT_QUERY_PROMPT = `### Task
Write 1 to 3 {{TYPE}} queries that would find the information needed to answer the user's
latest message in the conversation below. Today is {{CURRENT_DATE}}.

### Rules
- Each query is short and specific, in the language of the conversation.
- If no search is needed (a greeting, a question fully answered above), answer an empty list.

### Answer
Only this JSON, nothing else: {"queries": ["query 1", "query 2"]}

### Conversation
<conversation>
{{MESSAGES:END:6}}
</conversation>`;

export const DEFAULT_TOOLS_FUNCTION_CALLING_PROMPT = `You can call these tools:
{{TOOLS}}

Decide which tools, if any, help answer the user's latest message. Answer only this JSON:
{"tool_calls": [{"name": "<tool name>", "parameters": {"<argument>": "<value>"}}]}
Answer {"tool_calls": []} when no tool helps. Never invent tools or arguments.`;

/** Turns the conversation into a prompt for an image engine (the chat's image toggle). */
export const DEFAULT_IMAGE_PROMPT = `### Task:
Write a prompt for an image generator that draws what the user asks for in the conversation below. Describe the subject, the setting, the style, the composition, the colours, the light and the mood in one paragraph of at most 80 words, in English. Keep what the user asked for exactly; add only details that make it clearer.

### Output:
JSON only: { "prompt": "..." }

### Conversation:
{{MESSAGES:END:6}}`;
export const DEFAULT_NOTE_SUMMARY_PROMPT = `### Task
Summarize the note below for someone who has not read it.

### Rules
- Write in the note's own language.
- Markdown: a one-sentence gist, then the key points as a short bulleted list.
- Keep names, numbers, dates and decisions exactly as written; add nothing the note does not say.

### Answer
Only the summary in Markdown, with no introduction.

### Note
<note>
{{prompt}}
</note>`;

export const DEFAULT_NOTE_IMPROVE_PROMPT = `### Task
Improve the writing of the note below: clearer sentences, correct spelling and grammar, consistent
formatting.

### Rules
- Write in the note's own language and keep its voice.
- Keep its meaning, facts, names, numbers, links and Markdown structure (headings, lists, code).
- Do not add new content and do not comment on the changes.

### Answer
Only the improved note in Markdown.

### Note
<note>
{{prompt}}
</note>`;

export const DEFAULT_MEMORY_SUGGESTION_PROMPT = `### Task
Read the conversation below and list facts about the user worth remembering for later
conversations: their work, place, preferences, projects, people and things they own or use.

### Rules
- Only what the user said about themselves, in the first person, as short sentences ("I work in Lyon").
- Leave out what is only about this conversation's task, anything sensitive (health, passwords,
  money details) and anything already remembered (listed below).
- At most 3; none is a fine answer.

### Already remembered
{{prompt}}

### Answer
Only this JSON, nothing else: {"memories": ["...", "..."]}

### Conversation
<conversation>
{{MESSAGES:END:6}}
</conversation>`;
