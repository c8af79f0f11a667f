import { EXIT_FAILURE, type Command } from '../command.js';

// Placeholder until the publish command lands; replaced by its implementation.
export const command: Command = {
  name: 'publish',
  summary: 'publish',
  usage: 'reckon publish',
  flags: {},
  examples: [],
  async run(_args, io) {
    io.stderr.write('reckon publish: not available in this build\n');
    return EXIT_FAILURE;
  },
};
