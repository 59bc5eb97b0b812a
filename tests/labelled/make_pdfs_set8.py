"""Build the two PDF sheets of this blind set (run: /work/main/.venv/bin/python make_pdfs.py)."""

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
F = "STSong-Light"
H1 = ParagraphStyle("h1", fontName=F, fontSize=16, leading=22, spaceAfter=6)
H2 = ParagraphStyle("h2", fontName=F, fontSize=12, leading=17, spaceBefore=6, spaceAfter=4)
P = ParagraphStyle("p", fontName=F, fontSize=9.5, leading=14, wordWrap="CJK")
S = ParagraphStyle("s", fontName=F, fontSize=8, leading=11, wordWrap="CJK", textColor=colors.HexColor("#444444"))
C = ParagraphStyle("c", fontName=F, fontSize=8.5, leading=12, wordWrap="CJK")


def tbl(rows, widths, header=True):
    data = [[Paragraph(str(c), C) for c in r] for r in rows]
    t = Table(data, colWidths=[w * mm for w in widths])
    st = [("GRID", (0, 0), (-1, -1), 0.4, colors.grey), ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]
    if header:
        st.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dde6f0")))
    t.setStyle(TableStyle(st))
    return t


def footer(canvas, doc):
    canvas.saveState()
    canvas.setFont(F, 8)
    canvas.drawCentredString(A4[0] / 2, 10 * mm, str(doc.page))
    canvas.restoreState()


def test_report():
    doc = SimpleDocTemplate(
        "tongyuan-ts8000-test-report-zh.pdf",
        pagesize=A4,
        leftMargin=16 * mm,
        rightMargin=16 * mm,
        topMargin=16 * mm,
        bottomMargin=18 * mm,
        title="通远 TS8000 测试报告",
    )
    s = [
        Paragraph("通远 TS8000 智算服务器 性能与功耗测试报告", H1),
        Paragraph(
            "报告编号：TY-TR-2025-0412　版本：V1.2　测试日期：2025-04-08 至 2025-04-11　"
            "测试单位：通远信息技术有限公司 系统测试部",
            S,
        ),
        Paragraph("1 被测设备", H2),
        tbl(
            [
                ["项目", "配置"],
                ["产品型号", "TS8000-A8（6U 机架式）"],
                ["加速卡", "8 × 曜石 Y300 OAM，每卡 144 GB HBM3e，单卡 TDP 750 W"],
                [
                    "卡间互联",
                    "YLink 2.0 全互联（单机八卡）：每卡 7 条链路，每链路单向 64 GB/s，单卡合计 896 GB/s（双向）",
                ],
                ["处理器", "2 × 64 核 x86 处理器，单颗 TDP 350 W"],
                ["内存", "32 × 64 GB DDR5-5600 RDIMM"],
                ["集群网卡", "8 × 400G RoCE v2 网卡（PCIe 5.0 x16，每卡配一张）"],
                ["存储/业务网卡", "2 × 200GE"],
                ["电源", "6 × 3200 W 钛金电源（3+3 冗余）"],
                ["散热", "风冷，15 个 8056 风扇模块"],
                ["软件", "Ubuntu 22.04，驱动 YDriver 3.2，集合通信库 YCCL 1.9，ytccl-tests 2.3，perftest 24.01"],
            ],
            [38, 140],
        ),
        Paragraph("2 测试环境", H2),
        Paragraph(
            "测试在本公司实验室完成，机房进风温度 25 ± 1 ℃，相对湿度 45%。跨节点测试使用两台 TS8000 "
            "通过一台 400GE RoCE 交换机互联，交换机开启 PFC 与 ECN。整机输入功率由机柜 PDU 电能计量模块采集，"
            "采样间隔 1 s；单卡功耗由 ysmi 工具读取，采样间隔 100 ms。",
            P,
        ),
        Paragraph("3 测试结果", H2),
        Paragraph("3.1 单机 8 卡 all_reduce（YCCL，busbw，单位：GB/s）", P),
        Spacer(1, 3),
        tbl(
            [
                ["消息大小", "64 MB", "256 MB", "1 GB", "4 GB"],
                ["busbw", "298.4", "341.7", "356.2", "358.9"],
                ["线速利用率", "66.6%", "76.3%", "79.5%", "80.1%"],
            ],
            [38, 35, 35, 35, 35],
        ),
        Spacer(1, 6),
        Paragraph("3.2 卡间 P2P 带宽（单链路，8 卡两两测试取平均，单位：GB/s）", P),
        Spacer(1, 3),
        tbl([["测试项", "单向", "双向"], ["GPU 间 P2P 拷贝（YCCL sendrecv）", "55.1", "108.7"]], [78, 50, 50]),
        Spacer(1, 6),
        Paragraph("3.3 主机链路与显存带宽", P),
        Spacer(1, 3),
        tbl(
            [
                ["测试项", "结果", "说明"],
                ["H2D 拷贝（PCIe 5.0 x16）", "53.4 GB/s", "单向，pinned memory，256 MB"],
                ["D2H 拷贝（PCIe 5.0 x16）", "52.8 GB/s", "单向，pinned memory，256 MB"],
                ["HBM 带宽（stream triad）", "3.41 TB/s", "标称 4.0 TB/s"],
            ],
            [58, 40, 80],
        ),
    ]
    s.append(PageBreak())
    s += [
        Paragraph("3.4 跨节点 RDMA 网络带宽（perftest，单位：Gb/s）", P),
        Spacer(1, 3),
        tbl(
            [
                ["测试项", "结果"],
                ["ib_write_bw 单端口，单向", "392.1"],
                ["ib_write_bw 单端口，双向", "781.6"],
                ["8 端口并发，单向合计", "3126"],
            ],
            [90, 50],
        ),
        Spacer(1, 6),
        Paragraph("3.5 时延", P),
        Spacer(1, 3),
        tbl(
            [
                ["测试项", "消息大小", "平均时延", "标准差"],
                ["机内卡间 P2P 时延（YCCL sendrecv）", "8 B", "2.62 μs", "0.04 μs"],
                ["跨节点 RDMA 时延（ib_write_lat，单端口）", "2 B", "1.93 μs", "0.06 μs"],
                ["跨节点 all_reduce 时延（YCCL，2 节点 16 卡）", "8 B", "18.4 μs", "0.9 μs"],
            ],
            [82, 26, 35, 35],
        ),
        Spacer(1, 6),
        Paragraph("3.6 功耗（整机输入功率单位：kW；单卡功耗单位：W，8 卡平均）", P),
        Spacer(1, 3),
        tbl(
            [
                ["工况", "整机输入功率", "单卡功耗", "持续时间"],
                ["空闲（驱动加载完成）", "1.86", "96", "30 min"],
                ["all_reduce 压力测试", "6.95", "512", "60 min"],
                ["LLM 预训练负载（平均）", "9.41", "692", "4 h"],
                ["LLM 预训练负载（峰值）", "9.82", "741", "4 h"],
            ],
            [62, 40, 40, 36],
        ),
        Spacer(1, 3),
        Paragraph("注：满载阶段整机输入功率标准差 0.21 kW；电源额定容量 6 × 3200 W，3 路供电即可满足满载需求。", S),
        Spacer(1, 6),
        Paragraph("3.7 温度", P),
        Spacer(1, 3),
        tbl(
            [
                ["监控项", "满载结果"],
                ["加速卡核心最高温度", "83 ℃"],
                ["HBM 最高温度", "79 ℃"],
                ["整机出风温度", "48 ℃"],
                ["风扇转速", "82%"],
            ],
            [90, 50],
        ),
        Paragraph("4 结论", H2),
        Paragraph(
            "TS8000 在风冷条件下运行稳定：单机八卡 all_reduce 总线带宽最高 358.9 GB/s，约为 YLink 标称单向带宽 "
            "448 GB/s 的 80%；跨节点 RDMA 单端口单向带宽达到 400G 线速的 98%；LLM 预训练负载下整机平均功耗 "
            "9.41 kW，峰值不超过 10 kW。机柜部署密度请参考《TS8000 部署指南》并结合机房供电与制冷条件确定。",
            P,
        ),
        Spacer(1, 8),
        Paragraph("本报告仅对被测样机负责，未经书面许可不得部分复制。", S),
    ]
    doc.build(s, onFirstPage=footer, onLaterPages=footer)


def superpod():
    doc = SimpleDocTemplate(
        "hanhai-hx64-superpod-zh.pdf",
        pagesize=A4,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=18 * mm,
        bottomMargin=18 * mm,
        title="瀚海 HX64 超节点",
    )
    big = ParagraphStyle("big", fontName=F, fontSize=11, leading=17, wordWrap="CJK")
    s = [
        Paragraph("瀚海 HX64 超节点", H1),
        Paragraph("面向万亿参数大模型的整机柜算力平台", H2),
        Paragraph(
            '一柜即一台"超级计算机"：64 颗瀚海 H8 NPU 通过灵犀 Link 高速总线与柜内交换托盘全互联，'
            "构成单一 Scale-up 域，全部 HBM 统一编址，张量并行与专家并行不再受限于单台服务器。",
            big,
        ),
        Spacer(1, 8),
        Paragraph("■ 超大带宽：单卡 1.8 TB/s（双向）卡间带宽，超节点内总互联带宽 57.6 TB/s。", big),
        Paragraph(
            "■ 超低时延：灵犀交换芯片端口到端口时延仅 150 ns，相比传统 RoCE 组网 3 μs 的节点间时延降低 95% 以上。", big
        ),
        Paragraph(
            "■ 弹性扩展：每卡配置 1 个 400GE RoCE v2 端口，16 个超节点经两层 Clos 网络级联为 1,024 卡集群，"
            "并可向万卡集群平滑演进。",
            big,
        ),
        Paragraph("■ 绿色节能：冷板式液冷，液冷散热占比不低于 90%，PUE 低至 1.12。", big),
        Spacer(1, 10),
        Paragraph("瀚海智能计算有限公司　www.hanhai-example.cn　服务热线 400-000-0000", S),
    ]
    s.append(PageBreak())
    s += [
        Paragraph("技术规格", H1),
        tbl(
            [
                ["类别", "参数"],
                ["型号", "HX-SuperPod 64（HX64-L）"],
                ["NPU", "64 × 瀚海 H8（16 个计算节点，每节点 4 颗）"],
                ["单卡显存", "128 GB HBM3e，显存带宽 3.2 TB/s"],
                ["单卡算力", "FP16 1,000 TFLOPS（稠密），FP8 2,000 TFLOPS"],
                ["Scale-up 互联", "灵犀 Link 2.0，每卡 18 条链路，每链路 100 GB/s（双向）"],
                ["Scale-up 交换", "8 个交换托盘，共 16 颗灵犀交换芯片；单芯片 72 个端口，交换容量 28.8 Tbps"],
                ["Scale-up 域", "64 卡（单柜）"],
                ["Scale-out 网络", "64 × 400GE RoCE v2（每卡 1 口）"],
                ["前端/存储网络", "每节点 2 × 200GE（DPU 卸载）"],
                ["带外管理", "每节点 1 × 1GE"],
                ["卡间通信时延", "≤ 1.5 μs（LXCCL 集合通信库，8 B 消息，端到端）"],
                ["单卡功耗", "800 W（TDP）"],
                ["计算节点功耗", "最大 5.1 kW"],
                ["整柜功耗", "典型 82 kW，最大 96 kW"],
                ["供电", "3 × 33 kW 电源框（N+1），54 V 直流母排"],
                ["散热", "冷板式液冷 + 风冷辅助（风液比约 1:9）"],
                ["CDU", "柜内 CDU，额定散热能力 110 kW，供液温度 35 ~ 45 ℃"],
                ["尺寸 / 重量", "600 mm × 1200 mm × 2200 mm，≤ 1,800 kg"],
                ["机房要求", "单柜供电能力 ≥ 100 kW，楼板承重 ≥ 1,500 kg/m²，需配套液冷二次侧管路"],
            ],
            [40, 134],
        ),
        Spacer(1, 6),
        Paragraph("注：以上参数为 HX64-L 液冷版本典型配置，实际以合同技术附件为准。", S),
    ]
    doc.build(s, onFirstPage=footer, onLaterPages=footer)


if __name__ == "__main__":
    test_report()
    superpod()
