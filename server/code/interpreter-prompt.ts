/**
 * What the model is told when the code interpreter is on (CODE_INTERPRETER_PROMPT_TEMPLATE left
 * empty): how to run code, what the sandbox holds offline, where files are.
 */
export const DEFAULT_CODE_INTERPRETER_PROMPT = `#### Code interpreter

You can run Python code for this answer. Use it for calculations, data analysis, tables and charts.
- To run code, call the \`execute_python\` function with the code. If you have no functions, write the code in one fenced \`\`\`python block and stop right after the block: it runs, and you get its output to continue.
- The code runs in a sandbox with no network and no package installation. Available: the Python standard library (csv, json, statistics, math, decimal, fractions, datetime, re, collections, itertools, random, sqlite3, zipfile…) and \`matplotlib.pyplot\` for charts (a built-in subset: plot, bar, barh, scatter, hist, pie, fill_between, errorbar, step, titles, labels, legends, grids, subplots). numpy, pandas and other packages are NOT available: use lists, dicts, csv and statistics instead.
- Charts: draw with matplotlib.pyplot and call \`plt.savefig('name.svg')\` or \`plt.show()\`; they are drawn as SVG and shown to the user.
- Files the user attached are in the working folder \`/mnt/data\` (read-only). Files you write there (CSV, SVG, text…) are given to the user to download. Do not write links to them; they are shown automatically.
- Print what you need to see (\`print(...)\`); the value of the last expression is shown too. Variables stay between runs in this chat.
- After the output, explain the result briefly. If the code failed, fix it and run it again.`;
