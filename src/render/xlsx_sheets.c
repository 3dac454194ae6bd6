/*
 * xlsx_sheets.c — the workbook's sheet names in the workbook's language
 * (see xlsx.h: pl_xlsx_sheet_name).
 */
#include "render/xlsx.h"

#include "core/msg.h"
#include "render/words.h"

const char *pl_xlsx_sheet_name(enum pl_xlsx_sheet sheet, int zh)
{
	static const enum pl_msg_code codes[PL_XLSX_SHEET_COUNT] = {
		[PL_XLSX_SHEET_PROCUREMENT] = PL_MSG_W_XLSX_SHEET_PROCUREMENT,
		[PL_XLSX_SHEET_COMPARISON] = PL_MSG_W_XLSX_SHEET_COMPARISON,
		[PL_XLSX_SHEET_RUNS] = PL_MSG_W_XLSX_SHEET_RUNS,
		[PL_XLSX_SHEET_CONDITIONS] = PL_MSG_W_XLSX_SHEET_CONDITIONS,
		[PL_XLSX_SHEET_CAVEATS] = PL_MSG_W_XLSX_SHEET_CAVEATS,
		[PL_XLSX_SHEET_CHECKLIST] = PL_MSG_W_XLSX_SHEET_CHECKLIST,
		[PL_XLSX_SHEET_CHECK] = PL_MSG_W_XLSX_SHEET_CHECK,
	};

	if ((int)sheet < 0 || sheet >= PL_XLSX_SHEET_COUNT)
		return "Sheet";
	return pl_word(codes[sheet], zh ? PL_LANG_ZH : PL_LANG_EN);
}
