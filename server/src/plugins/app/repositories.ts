import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { RECORD_QUOTAS, type RecordQuotas } from '../../lib/quotas.js';
import {
  createAnalyticsSnapshotsRepository,
  type AnalyticsSnapshotsRepository,
} from './analytics-snapshots-repository.js';
import {
  createAccountSecurityRepository,
  type AccountSecurityRepository,
} from './account-security-repository.js';
import { createCalendarsRepository, type CalendarsRepository } from './calendars-repository.js';
import { createCategoriesRepository, type CategoriesRepository } from './categories-repository.js';
import { createEventsRepository, type EventsRepository } from './events-repository.js';
import { createTasksRepository, type TasksRepository } from './tasks-repository.js';
import { createTimeEntriesRepository, type TimeEntriesRepository } from './time-entries-repository.js';
import {
  TRASH_LIMITS,
  createTrashRepository,
  type TrashLimits,
  type TrashRepository,
} from './trash-repository.js';
import { createUsersRepository, type UsersRepository } from './users-repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    usersRepository: UsersRepository;
    accountSecurityRepository: AccountSecurityRepository;
    categoriesRepository: CategoriesRepository;
    tasksRepository: TasksRepository;
    eventsRepository: EventsRepository;
    calendarsRepository: CalendarsRepository;
    analyticsSnapshotsRepository: AnalyticsSnapshotsRepository;
    trashRepository: TrashRepository;
    timeEntriesRepository: TimeEntriesRepository;
  }
}

/** The quotas also bound every list a repository returns. */
export function createRepositories(
  db: Kysely<Database>,
  quotas: RecordQuotas = RECORD_QUOTAS,
  trash: TrashLimits = TRASH_LIMITS,
) {
  return {
    usersRepository: createUsersRepository(db),
    accountSecurityRepository: createAccountSecurityRepository(db),
    categoriesRepository: createCategoriesRepository(db, quotas.categories),
    tasksRepository: createTasksRepository(db, quotas.tasks),
    eventsRepository: createEventsRepository(db, quotas.events),
    calendarsRepository: createCalendarsRepository(db),
    analyticsSnapshotsRepository: createAnalyticsSnapshotsRepository(db),
    trashRepository: createTrashRepository(db, trash),
    timeEntriesRepository: createTimeEntriesRepository(db, quotas.timeEntries),
  };
}

export default fp(
  async function repositoriesPlugin(app) {
    const repositories = createRepositories(app.db, app.config.quotas, app.config.trash);
    app.decorate('usersRepository', repositories.usersRepository);
    app.decorate('accountSecurityRepository', repositories.accountSecurityRepository);
    app.decorate('categoriesRepository', repositories.categoriesRepository);
    app.decorate('tasksRepository', repositories.tasksRepository);
    app.decorate('eventsRepository', repositories.eventsRepository);
    app.decorate('calendarsRepository', repositories.calendarsRepository);
    app.decorate('analyticsSnapshotsRepository', repositories.analyticsSnapshotsRepository);
    app.decorate('trashRepository', repositories.trashRepository);
    app.decorate('timeEntriesRepository', repositories.timeEntriesRepository);
  },
  { name: 'repositories', dependencies: ['database'] },
);
