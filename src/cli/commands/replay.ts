import { EXIT_FAILURE, type Command } from '../command.js';

// Placeholder until the replay command lands; replaced by its implementation.
export const command: Command = {
  name: 'replay',
  summary: 'replay',
  usage: 'reckon replay',
  flags: {},
  examples: [],
  async run(_args, io) {
    io.stderr.write('reckon replay: not available in this build\n');
    return EXIT_FAILURE;
  },
};
