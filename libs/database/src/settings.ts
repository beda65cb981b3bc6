import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isUniqueViolation } from './database-errors';

const TABLE = 'settings';

/**
 * Small named values kept in the `settings` table (owned by this lib), such as the cursor a maintenance job
 * resumes from. Names are namespaced by their user (`verify-integrity.cursor`).
 */
@Injectable()
export class Settings {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async get(name: string): Promise<string | undefined> {
    const row: { value: string } | undefined = await this.dataSource
      .createQueryBuilder()
      .select('s.value', 'value')
      .from(TABLE, 's')
      .where('s.name = :name', { name })
      .getRawOne();
    return row?.value;
  }

  async set(name: string, value: string): Promise<void> {
    const exists = (await this.get(name)) !== undefined;
    if (!exists) {
      try {
        await this.dataSource.createQueryBuilder().insert().into(TABLE).values({ name, value }).execute();
        return;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error; // another instance inserted it first: update it
      }
    }
    await this.dataSource
      .createQueryBuilder()
      .update(TABLE)
      .set({ value })
      .where('name = :name', { name })
      .execute();
  }
}
