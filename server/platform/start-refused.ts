/**
 * A reason the service cannot start that the person starting it can act on (a setting, the data
 * dir, the database): the command line says its message as it is, without a stack trace, and the
 * desktop app shows it in its error box.
 */
export class StartRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
