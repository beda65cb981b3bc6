import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isUniqueViolation } from './database-errors';

const TABLE = 'settings';

/**
 * Small named values kept in the `settings` table (platform's), such as the cursor a maintenance job
 * resumes from or the URL signing secret: the one reader and writer of that table. Names are namespaced
 * by their user (`verify-integrity.cursor`).
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

  /**
   * The value of `name`, set to `create()` first when it has none. Instances starting together agree:
   * the first insert wins and the others read its value.
   */
  async getOrCreate(name: string, create: () => string): Promise<string> {
    const existing = await this.get(name);
    if (existing !== undefined) return existing;
    const value = create();
    try {
      await this.insert(name, value);
      return value;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const winner = await this.get(name);
      if (winner === undefined) throw error;
      return winner;
    }
  }

  async set(name: string, value: string): Promise<void> {
    const exists = (await this.get(name)) !== undefined;
    if (!exists) {
      try {
        await this.insert(name, value);
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

  private async insert(name: string, value: string): Promise<void> {
    await this.dataSource.createQueryBuilder().insert().into(TABLE).values({ name, value }).execute();
  }
}
