import { defineSection } from '../config';
import { DEFAULT_TASK_CONFIG, TaskConfig } from '../contracts/tasks';

/** The task pipeline settings (admin, section 2 "Task pipeline config"). */
export const TaskConfigSection = defineSection<TaskConfig>('tasks', TaskConfig, DEFAULT_TASK_CONFIG);
